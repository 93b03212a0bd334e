package pfunct

import (
	"strconv"

	"github.com/btfkit/btfkit/internal/ctype"
)

// printConf is the part of pahole's conf_fprintf pfunct sets.
type printConf struct {
	declInfo    bool // -l: show_decl_info
	noParmNames bool
	noSemicolon bool // --compile
	stripInline bool // --compile
	extraDbg    bool // extra_dbg_info: decl files, lines and entry offsets are known
}

// funcProto returns the function's prototype: a BTF function's
// FUNC_PROTO, a DWARF function's own return type and parameters.
func (n *namer) funcProto(f *function) ctype.Proto {
	if f.btf {
		pt, ok := protoOf(n.u.spec, f.proto)
		if !ok {
			return ctype.Proto{}
		}
		return ctype.ProtoOf(pt)
	}
	return ctype.Proto{Ret: f.ret, List: f, Unspec: f.unspec}
}

// function is pahole's tag__fprintf of a function with pfunct's conf: the
// declaration info (-l), decl tags, the prototype, ';' and the linkage
// name.
func (p *printer) function(b *buf, u *unit, f *function) {
	n := p.namer(u)
	if p.conf.declInfo {
		b.Str("/* Used at: ")
		b.Str(u.name)
		b.Str(" */\n")
		b.Str("/* <")
		off := uint64(0)
		file := "(null)"
		line := uint32(0)
		if !u.btf && p.conf.extraDbg {
			off = f.off
			if f.hasFile {
				file = f.declFile
			}
			line = f.declLine
		}
		b.Str(strconv.FormatUint(off, 16))
		b.Str("> ")
		b.Str(file)
		b.Byte(':')
		b.Uint(uint64(line))
		b.Str(" */\n")
	}
	ctype.AppendAttrs(b, f.attrs)
	if f.virtuality == virtualityVirtual || f.virtuality == virtualityPureVirtual {
		b.Str("virtual ")
	}
	inlined := !p.conf.stripInline && f.declaredInline()
	n.AppendFtype(b, n.funcProto(f), f.name, inlined, false, 0, false)
	if f.virtuality == virtualityPureVirtual {
		b.Str(" = 0")
	}
	if !p.conf.noSemicolon {
		b.Byte(';')
	}
	if f.linkage != "" {
		b.Str(" /* linkage=")
		b.Str(f.linkage)
		b.Str(" */")
	}
}

// stats is pahole's function__fprintf_stats: the function's lexical
// block, then its size and counts.
func (p *printer) blockStats(b *buf, u *unit, f *function) {
	p.lexblock(b, u, f, &f.block, 0)
	b.Str("/* size: ")
	b.Int(int64(int32(f.block.size)))
	if f.block.nrVariables > 0 {
		b.Str(", variables: ")
		b.Uint(uint64(f.block.nrVariables))
	}
	if f.block.nrLabels > 0 {
		b.Str(", goto labels: ")
		b.Uint(uint64(f.block.nrLabels))
	}
	if f.block.nrInline > 0 {
		b.Str(", inline expansions: ")
		b.Uint(uint64(f.block.nrInline))
		b.Str(" (")
		b.Int(int64(int32(f.block.sizeInline)))
		b.Str(" bytes)")
	}
	b.Str(" */\n")
}

// lexblock is pahole's lexblock__fprintf.
func (p *printer) lexblock(b *buf, u *unit, f *function, blk *block, indent int) {
	indent = min(indent, 15)
	b.Tabs(indent)
	b.Byte('{')
	if blk.addr != 0 {
		off := blk.addr - f.block.addr
		if off == 0 {
			b.Str(" /* low_pc=")
			b.Hex(blk.addr)
			b.Str(" */")
		} else {
			b.Str(" /* ")
			b.Str(f.name)
			b.Byte('+')
			b.Hex(off)
			b.Str(" */")
		}
	}
	b.Byte('\n')
	for _, it := range blk.items {
		p.blockItem(b, u, f, it, indent+1)
	}
	b.Tabs(indent)
	b.Byte('}')
	if f.block.addr != blk.addr {
		b.Str(" /* lexblock size=")
		b.Int(int64(int32(blk.size)))
		b.Str(" */")
	}
}

// blockItem is pahole's function__tag_fprintf: one entry of a lexical
// block, then its declaration line in a column.
func (p *printer) blockItem(b *buf, u *unit, f *function, it *item, indent int) {
	indent = min(indent, 15)
	c := indent * 8
	line := it.line
	if !p.conf.extraDbg {
		line = 0
	}
	switch it.kind {
	case itemInline:
		var alias *function
		if it.origin >= 0 && it.origin < len(u.funcs) {
			alias = u.funcs[it.origin]
		}
		if alias == nil {
			b.Str("<ERROR(function__tag_fprintf:1311): 0 not found!>\n")
			break
		}
		b.Tabs(indent)
		b.Str(alias.name)
		n := p.namer(u)
		n.AppendParams(b, n.funcProto(alias), indent+(len(alias.name)+7)/8)
		b.Str("; /* size=")
		b.Uint(it.size)
		b.Str(", low_pc=")
		b.Hex(it.addr)
		b.Str(" */")
		c = 69
	case itemVariable:
		b.Tabs(indent)
		start := len(*b)
		if n := p.namer(u); true {
			if t, ok := n.typ(it.typ); ok {
				n.defaults().AppendName(b, t, varNameBuf)
			} else {
				b.Str("(null)")
			}
		}
		b.Byte(' ')
		b.Str(it.name)
		b.Str("; /* scope: ")
		b.Str(scopeString(it.scope))
		b.Str(" */")
		c += len(*b) - start
	case itemLabel:
		b.Tabs(indent)
		b.Byte('\n')
		start := len(*b)
		b.Str(it.name)
		b.Byte(':')
		c = len(*b) - start
	case itemBlock:
		p.lexblock(b, u, f, it.block, indent)
		b.Byte('\n')
		return
	default:
		b.Tabs(indent)
		start := len(*b)
		b.Str("formal_parameter <")
		off := uint64(0)
		if p.conf.extraDbg {
			off = it.off
		}
		b.Str(strconv.FormatUint(off, 16))
		b.Byte('>')
		c += len(*b) - start
	}
	b.Fill(70 - c)
	b.Str("// ")
	b.PadLeft(strconv.FormatUint(uint64(line), 10), 5)
	b.Byte('\n')
}
