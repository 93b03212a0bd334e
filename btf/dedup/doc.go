// Package dedup merges and deduplicates BTF with the semantics of libbpf's
// btf__dedup, so that btfkit's output can be compared with (and match)
// what pahole writes.
//
// # Use
//
// A caller needs few calls:
//
//   - Dedup(in, Options{}) deduplicates one Spec: a complete BTF, or split
//     BTF (a module's) against its base, which stays as it is. The
//     Mapping it returns says where each input type went.
//   - Merge and MergeOnto first concatenate several Specs into one (a
//     compiler's per-unit BTF, the members of a BTF archive); FirstIDs
//     says where each Spec's types landed; LoadMembers reads and parses
//     the files holding them. MergeDedup does both without the merged
//     copy in between; a Merger merges one Spec at a time.
//   - PrepareBase(vmlinux) readies a base once for many inputs; then
//     Dedup(in, Options{Base: prepared}) deduplicates each input against
//     it, concurrently if wanted, with the result Dedup gives without it.
//   - NewStream deduplicates a complete BTF while it is being built, unit
//     by unit (AddRaw, EndUnit, Finish), with Dedup's result: the encoder
//     runs the primitive and struct phases beside its workers instead of
//     after them, on its one copy of the merged types.
//   - NewBuilder collects types from any source (String, AddRaw) for one
//     Dedup without making a Spec of them first.
//
// Options.Stats times the phases.
//
// # The problem
//
// A compiler describes each compilation unit (CU) on its own: every CU that
// includes <linux/sched.h> carries its own copy of struct task_struct, of
// every type it reaches, of int. Concatenating the BTF of N units therefore
// holds up to N copies of each type, and the copies are not even
// identical: a struct that one unit only declares ("struct mm_struct;") is
// a FWD there and a full STRUCT elsewhere, and types refer to one another
// in cycles (a list node points to its own type), so "equal" cannot be
// decided by comparing a type with its referenced types' IDs. Dedup finds,
// for every type, one canonical representative among its equivalent
// copies, keeps only those, and renumbers.
//
// # Inside
//
// Stream's candidate order is seqindex.go's. The archive route
// (encode/frombtf) also reuses a Builder's memory from group to group and
// deduplicates a Merger's result in two steps, the first in the
// background while it still appends functions and variables (staged.go);
// it reaches those through internal/dedupinternal, which this package
// fills (internal.go).
//
// Strings are interned by hand-written code (interner.go, strhash.go,
// strmap.go), not Go maps of strings: an archive's members hold about 1.4
// million names to look up, each read out of a string table where its
// length is not known; the hash finds the NUL and hashes in one pass, and
// stringMap first compares the name the interner holds after the last one
// mapped (members made from the same headers name their types in the
// same order), which spares two look-ups in three.
//
// # Data layout
//
// All state is in flat, ID-indexed slices (no per-type allocation): the
// types' 12-byte headers, one slice of trailing words (members,
// parameters, ...), and three uint32 maps:
//
//   - canonical: a type's canonical representative. Unprocessed types
//     hold a marker above the largest legal ID; a type is canonical when
//     canonical[id] == id. Chains (a FWD mapped to a struct that is mapped
//     to an earlier struct) are followed on lookup ("resolve").
//   - hypothetical: the hypothetical map of one equivalence check (below),
//     with the list of the entries set (hypotheticalIDs) so it can be
//     cleared in time proportional to the check, not to the BTF.
//   - a candidate index from a type's signature hash to canonical types
//     with that hash. It reproduces libbpf's hashmap (bucket chains, head
//     insertion, growth at 3/4 load) so candidates are tried in the same
//     order; with several acceptable candidates the first one wins, and the
//     choice shows in the output's IDs.
//
// A split input (module BTF) keeps its base read only: base types are
// canonical by definition and are indexed as candidates first, so a split
// type equal to a base type maps onto the base ID. A prepared base
// (PrepareBase, prepared.go) holds the base's share of the tables, built
// once: its types, its candidate index and the names of its structs and
// unions; each run against it reads them, shared, and overlays its own.
//
// # Phases
//
// Each phase walks the input's own types in ID order, which alone makes the
// result independent of anything but the input.
//
//  1. Strings. The string table is rebuilt with every referenced string
//     once, in the order types reference them (a type's name, then its
//     member, enumerator or parameter names); strings the base holds keep
//     the base's offsets. After this, equal names have equal offsets, and
//     all later comparisons are on offsets.
//
//  2. Primitive types: INT, FLOAT, FWD, ENUM, ENUM64 refer to no other type,
//     so a hash of their fields and an exact comparison decide. One
//     relaxation: a forward-declared enum (vlen 0) is compatible with any
//     enum or enum64 of its name. A new enum forward takes an earlier full
//     enum; a new full enum takes over a canonical enum forward met earlier
//     (the forward's canon entry is pointed at it).
//
//  3. Structs, unions and typedefs: the graph phase. A struct's hash covers
//     its name, size and member names and offsets, but not member types,
//     which may still be unresolved. For each candidate with the same
//     shallow shape, a side-by-side depth-first walk of the two type graphs
//     (the new type's "candidate graph" and the candidate's "canonical
//     graph") checks equivalence, recording canonical -> candidate pairs in
//     the hypothetical map:
//
//     - two types that already resolve to the same canonical type are
//     equivalent;
//     - a canonical type already mapped to this very candidate type closes a
//     cycle and is equivalent;
//     - a canonical type mapped to a different candidate type is a
//     contradiction, unless the two candidate types are structurally
//     identical (compilers sometimes emit two copies of one array or
//     struct in a single unit), checked to a bounded depth;
//     - otherwise the pair is recorded and the two types are compared
//     shallowly by kind (names, sizes, offsets, vlen, array length,
//     parameter names) and their referenced types recursively.
//
//     A FWD matches a STRUCT or UNION of its name and kind in either graph.
//     On the canonical side a FWD that has since been resolved is followed
//     to its struct; on the candidate side it never is, which keeps the
//     mapping one-to-one where it matters (libbpf's comment walks through
//     the four cases).
//
//     When the walk succeeds its hypothetical map is made permanent where
//     that is safe: each FWD resolves to the struct it was matched with
//     (in either direction), and candidate structs, unions and typedefs
//     whose counterpart is already canonical are mapped onto it, which
//     saves later walks (libbpf maps only structs and unions, and walks a
//     chain of n typedefs n times over). The
//     new type then maps onto the candidate; if no candidate matches, it
//     becomes canonical and joins the index. With a base, a match that
//     would need a base FWD resolved only records that FWD's resolution
//     and does not count as a match: base types never change.
//
//     Typedefs are deduplicated here too, hashed by name (not target), as a
//     typedef can be part of a cycle (struct A { A_t *next; } with typedef
//     struct A A_t) that the reference-type phase cannot see through. The
//     base's typedefs are indexed with the same name-only hash; hashing
//     them with their target, as libbpf v1.8.0 briefly did, misses every
//     base typedef and duplicates it into each module.
//
//  4. FWD by name. A FWD still canonical after the graph phase (its unit
//     never compared with a unit holding the definition, e.g. "struct foo;
//     struct foo *p;" alone) maps onto the canonical STRUCT or UNION of its
//     name if there is exactly one, base included, and its kind matches.
//
//  5. Reference types: PTR, CONST, VOLATILE, RESTRICT, TYPE_TAG, FUNC,
//     ARRAY, FUNC_PROTO, DECL_TAG. Their targets are resolved first,
//     recursively (every chain ends at a type of phases 2-4, since C can
//     only form cycles through structs and typedefs), and rewritten to
//     canonical IDs in place; then a hash of all fields and exact
//     comparison decide. A chain that loops back on itself is malformed
//     input and an error.
//
//  6. VAR and DATASEC (btfkit's addition, Options.KeepDuplicateVars turns
//     it off): libbpf keeps every VAR and DATASEC. We merge a VAR equal to
//     an earlier one (name, linkage, canonical type), then DATASECs equal
//     entry by entry, then DECL_TAGs that became equal, so two copies of a
//     BTF dedup to one. It runs last, so nothing else about the result
//     changes.
//
//  7. Compaction and remapping. Canonical types are kept in their input
//     order, which is the first-occurrence order of each equivalence class
//     (the representative is always its earliest member, or the one a later
//     full definition made canonical), renumbered densely after the base's
//     last ID, and every type reference is rewritten through
//     resolve-then-renumber.
//
// # Input quirks
//
// gcc 12's -gbtf writes garbage into a FWD's unused size/type word, which
// the kernel requires to be 0; Dedup zeroes it on input. libbpf's
// identical-types fallback compares an array with itself (a typo), making
// any two arrays of the same length identical there; ours compares the
// element and index types, which can only keep apart types that no C
// compiler emits.
//
// # Merging
//
// Merge and MergeOnto concatenate Specs (per-unit fragments, archive
// members) into one, shifting IDs, and intern strings on the way through a
// per-spec offset cache, so that the merged string table (and the work and
// memory Dedup spends on it) is the size of the distinct strings, not of
// thousands of per-unit tables. A Merger does the same one Spec at a
// time, for a caller that makes its inputs in order while it merges
// (the archive route merges each group of members as it is done).
// LoadMembers parses inputs in parallel; results are placed by input index,
// so the merged order, and with it the output, never depends on
// scheduling.
//
// This package must not know about DWARF, ELF writing, or output formats:
// it takes Specs and returns a Spec.
package dedup
