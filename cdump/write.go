package cdump

import (
	"fmt"
	"io"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/atomicfile"
)

// Options tune a C dump. The zero value prints what bpftool prints.
type Options struct {
	// PointerSize is the target's pointer size in bytes, 4 or 8. Zero
	// guesses it from the size of C "long" in the BTF (as libbpf does for
	// raw BTF) and falls back to 8. For an ELF input, pass 4 or 8 from its
	// class, as bpftool does.
	PointerSize int

	// FixLayout prints correct C where bpftool 7.1's header is wrong:
	// mode(byte)/mode(word) on 1- and 8-byte enums (as later libbpf does),
	// _Complex for complex base types ("complex double" does not compile),
	// and aligned(N) on unions whose BTF size shows an over-aligned member.
	// The header then differs from bpftool's wherever those occur (eight
	// enums of the 6.18 kernel's BTF, for one).
	FixLayout bool

	// Bare omits the vmlinux.h wrapper (include guard and the
	// preserve_access_index pragma block) and prints only the types.
	Bare bool

	// Roots, when not empty, restricts the dump to these types and the
	// types they need (bpftool's root_id); otherwise every type of the
	// Spec, base types included, is dumped in ID order.
	Roots []btf.TypeID
}

const (
	prologue = "#ifndef __VMLINUX_H__\n" +
		"#define __VMLINUX_H__\n" +
		"\n" +
		"#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n" +
		"#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n" +
		"#endif\n\n"
	epilogue = "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n" +
		"#pragma clang attribute pop\n" +
		"#endif\n" +
		"\n" +
		"#endif /* __VMLINUX_H__ */\n"
)

// Bytes returns the C header for spec. For a split Spec the base's types
// are included, as bpftool does with -B.
func Bytes(spec *btf.Spec, opts Options) ([]byte, error) {
	d, err := dump(spec, opts, nil)
	if err != nil {
		return nil, err
	}
	return d.out, nil
}

// Write prints the C header for spec to w, in chunks as it is made. On an
// error (a type cycle C cannot express) w has received part of the header,
// as bpftool's output has.
func Write(w io.Writer, spec *btf.Spec, opts Options) error {
	_, err := dump(spec, opts, w)
	return err
}

// flushSize is how much output Write collects before passing it on.
const flushSize = 64 << 10

// orderBatch is a run of definitions to emit, in order, from the orderer
// goroutine to the printer; the first message carries only the name counts,
// the last one may carry the error that stops the dump.
type orderBatch struct {
	ids          []btf.TypeID
	tags, idents int
	err          error
}

// batchLen is how many definitions the orderer hands over at a time.
const batchLen = 4096

// dump prints the header for spec into the returned dumper's buffer, or in
// chunks to w when w is not nil. The topological ordering runs on its own
// goroutine ahead of the printing (two cores do the work of libbpf's one
// loop); the printer consumes the order as one sequence, so the output is
// the same whatever the scheduling.
func dump(spec *btf.Spec, opts Options, w io.Writer) (*dumper, error) {
	if spec == nil {
		return nil, fmt.Errorf("cdump: nil Spec")
	}
	roots := opts.Roots
	nroots := len(roots)
	if nroots == 0 {
		nroots = int(spec.NextID()) - 1
	}
	ch := make(chan orderBatch, 16)
	stop := make(chan struct{})
	defer close(stop)
	// The printer marks the upper half of the types' references while the
	// orderer marks the lower half; the orderer merges both before ordering.
	n := int(spec.NextID())
	mid := 1 + (n-1)/2
	upper := make(chan []bool, 1)
	go func() {
		defer close(ch)
		send := func(b orderBatch) bool {
			select {
			case ch <- b:
				return true
			case <-stop:
				return false
			}
		}
		o := newOrderer(spec)
		tags, idents := markReferenced(spec, 1, mid, o.referenced)
		var hi []bool
		select {
		case hi = <-upper:
		case <-stop:
			return
		}
		for i, r := range hi {
			if r {
				o.referenced[i] = true
			}
		}
		if !send(orderBatch{tags: tags, idents: idents}) {
			return
		}
		// Small batches first, so the printer starts early.
		size := 256
		cur := make([]btf.TypeID, 0, size+size/4)
		for i := 0; i < nroots; i++ {
			id := btf.TypeID(i + 1)
			if len(roots) > 0 {
				id = roots[i]
			}
			if err := o.order(id); err != nil {
				send(orderBatch{ids: cur, err: err})
				return
			}
			cur = append(cur, o.queue...)
			if len(cur) >= size {
				if !send(orderBatch{ids: cur}) {
					return
				}
				size = min(2*size, batchLen)
				cur = make([]btf.TypeID, 0, size+size/4)
			}
		}
		send(orderBatch{ids: cur})
	}()
	hi := make([]bool, n)
	hiTags, hiIdents := markReferenced(spec, mid, n, hi)
	upper <- hi

	d := newDumper(spec, opts.PointerSize)
	d.fixLayout = opts.FixLayout
	if w == nil {
		d.out = make([]byte, 0, estimateSize(spec))
	} else {
		d.out = make([]byte, 0, flushSize+flushSize/2)
	}
	flush := func(force bool) error {
		if w == nil || (!force && len(d.out) < flushSize) {
			return nil
		}
		_, err := w.Write(d.out)
		d.written += len(d.out)
		d.out = d.out[:0]
		return err
	}
	first := <-ch
	d.sizeNameMaps(first.tags+hiTags, first.idents+hiIdents)
	if !opts.Bare {
		d.str(prologue)
	}
	for b := range ch {
		for _, id := range b.ids {
			d.emitType(id, 0)
		}
		if d.overflow() {
			return nil, d.err
		}
		if b.err != nil {
			flush(true)
			return nil, b.err
		}
		if err := flush(false); err != nil {
			return nil, err
		}
	}
	if !opts.Bare {
		d.str(epilogue)
	}
	return d, flush(true)
}

// estimateSize guesses the header size to allocate its buffer once: about
// 20 bytes of C per type (measured on kernel BTF).
func estimateSize(spec *btf.Spec) int {
	return int(spec.NextID())*24 + 4096
}

// WriteFile writes the C header for spec to path unless path already holds
// exactly these bytes, in which case the file is left alone (contents,
// mtime and inode), so build rules depending on it do not fire. A changed
// header is written to a temporary file in the same directory and renamed
// over path, so readers never see a partial header. It reports whether
// the file was written.
func WriteFile(path string, spec *btf.Spec, opts Options) (changed bool, err error) {
	b, err := Bytes(spec, opts)
	if err != nil {
		return false, err
	}
	return UpdateFile(path, b, 0o644)
}

// UpdateFile replaces path's contents with data unless they are already
// equal, atomically (temporary file and rename in path's directory; a
// device or pipe such as /dev/stdout is written through). A new file gets
// mode perm; an existing file keeps its mode. It reports whether it wrote.
func UpdateFile(path string, data []byte, perm os.FileMode) (changed bool, err error) {
	return atomicfile.Write(path, data, atomicfile.Options{Perm: perm, IfChanged: true})
}
