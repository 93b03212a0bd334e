package pfunct

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// printConf is the part of pahole's conf_fprintf pfunct sets.
type printConf struct {
	declInfo    bool // -l: show_decl_info
	noParmNames bool
	noSemicolon bool // --compile
	stripInline bool // --compile
	extraDbg    bool // extra_dbg_info: decl files, lines and entry offsets are known
}

// funcParams returns the function's return type and parameters: a DWARF
// function's own, a BTF function's FUNC_PROTO's.
func (n *namer) funcParams(f *function) (ret uint32, ps []parm, unspec bool) {
	if f.btf {
		pt, ok := protoOf(n.u.spec, f.proto)
		if !ok {
			return 0, nil, false
		}
		return uint32(pt.Ref()), n.protoParams(pt), protoUnspec(pt)
	}
	ps = make([]parm, len(f.params))
	for i, p := range f.params {
		ps[i] = parm{name: p.name, typ: p.typ}
	}
	return uint32(f.ret), ps, f.unspec
}

// funcSrc returns the function's return type and where its parameters
// are.
func (n *namer) funcSrc(f *function) (btf.TypeID, parmSrc) {
	if f.btf {
		pt, ok := protoOf(n.u.spec, f.proto)
		if !ok {
			return 0, parmSrc{}
		}
		return pt.Ref(), protoSrc(pt)
	}
	return f.ret, parmSrc{dw: f.params, unspec: f.unspec}
}

// function is pahole's tag__fprintf of a function with pfunct's conf: the
// declaration info (-l), decl tags, the prototype, ';' and the linkage
// name.
func (p *printer) function(b *buf, u *unit, f *function) {
	n := p.namer(u)
	if p.conf.declInfo {
		b.str("/* Used at: ")
		b.str(u.name)
		b.str(" */\n")
		b.str("/* <")
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
		b.str(strconv.FormatUint(off, 16))
		b.str("> ")
		b.str(file)
		b.byte(':')
		b.uint(uint64(line))
		b.str(" */\n")
	}
	writeAttrs(b, f.attrs)
	if f.virtuality == virtualityVirtual || f.virtuality == virtualityPureVirtual {
		b.str("virtual ")
	}
	ret, src := n.funcSrc(f)
	inlined := !p.conf.stripInline && f.declaredInline()
	n.ftype(b, ret, src, f.name, inlined, false, false)
	if f.virtuality == virtualityPureVirtual {
		b.str(" = 0")
	}
	if !p.conf.noSemicolon {
		b.byte(';')
	}
	if f.linkage != "" {
		b.str(" /* linkage=")
		b.str(f.linkage)
		b.str(" */")
	}
}

// stats is pahole's function__fprintf_stats: the function's lexical
// block, then its size and counts.
func (p *printer) blockStats(b *buf, u *unit, f *function) {
	p.lexblock(b, u, f, &f.block, 0)
	b.str("/* size: ")
	b.int(int64(int32(f.block.size)))
	if f.block.nrVariables > 0 {
		b.str(", variables: ")
		b.uint(uint64(f.block.nrVariables))
	}
	if f.block.nrLabels > 0 {
		b.str(", goto labels: ")
		b.uint(uint64(f.block.nrLabels))
	}
	if f.block.nrInline > 0 {
		b.str(", inline expansions: ")
		b.uint(uint64(f.block.nrInline))
		b.str(" (")
		b.int(int64(int32(f.block.sizeInline)))
		b.str(" bytes)")
	}
	b.str(" */\n")
}

// lexblock is pahole's lexblock__fprintf.
func (p *printer) lexblock(b *buf, u *unit, f *function, blk *block, indent int) {
	indent = min(indent, 15)
	b.tabs(indent)
	b.byte('{')
	if blk.addr != 0 {
		off := blk.addr - f.block.addr
		if off == 0 {
			b.str(" /* low_pc=")
			b.hex(blk.addr)
			b.str(" */")
		} else {
			b.str(" /* ")
			b.str(f.name)
			b.byte('+')
			b.hex(off)
			b.str(" */")
		}
	}
	b.byte('\n')
	for _, it := range blk.items {
		p.blockItem(b, u, f, it, indent+1)
	}
	b.tabs(indent)
	b.byte('}')
	if f.block.addr != blk.addr {
		b.str(" /* lexblock size=")
		b.int(int64(int32(blk.size)))
		b.str(" */")
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
			b.str("<ERROR(function__tag_fprintf:1311): 0 not found!>\n")
			break
		}
		b.tabs(indent)
		b.str(alias.name)
		n := p.namer(u)
		_, src := n.funcSrc(alias)
		n.parms(b, src, indent+(len(alias.name)+7)/8)
		b.str("; /* size=")
		b.uint(it.size)
		b.str(", low_pc=")
		b.hex(it.addr)
		b.str(" */")
		c = 69
	case itemVariable:
		b.tabs(indent)
		start := len(*b)
		if t, ok := p.namer(u).typ(it.typ); ok {
			vn := &namer{u: u}
			vn.appendName(b, t, varNameBuf)
		} else {
			b.str("(null)")
		}
		b.byte(' ')
		b.str(it.name)
		b.str("; /* scope: ")
		b.str(scopeString(it.scope))
		b.str(" */")
		c += len(*b) - start
	case itemLabel:
		b.tabs(indent)
		b.byte('\n')
		start := len(*b)
		b.str(it.name)
		b.byte(':')
		c = len(*b) - start
	case itemBlock:
		p.lexblock(b, u, f, it.block, indent)
		b.byte('\n')
		return
	default:
		b.tabs(indent)
		start := len(*b)
		b.str("formal_parameter <")
		off := uint64(0)
		if p.conf.extraDbg {
			off = it.off
		}
		b.str(strconv.FormatUint(off, 16))
		b.byte('>')
		c += len(*b) - start
	}
	b.fill(70 - c)
	b.str("// ")
	b.padLeft(strconv.FormatUint(uint64(line), 10), 5)
	b.byte('\n')
}
