package btf

import "encoding/binary"

// Marshal writes the Spec's own types and strings as raw BTF in the given
// byte order (binary.LittleEndian when nil). A split Spec gives split BTF:
// only its own types and strings, to be read back with the same base.
// A kind layout section (SetKindLayouts) goes between the types and the
// strings, as libbpf v1.8 writes it.
func (s *Spec) Marshal(order binary.ByteOrder) []byte {
	if order == nil {
		order = binary.LittleEndian
	}
	// A Spec read from BTF with a longer header (newer libbpf writes 32
	// bytes, the extra ones zero without a kind layout section) is
	// written back with the same length so that read-then-write
	// reproduces the input byte for byte.
	hl := s.HeaderLen()
	typeLen := 12*len(s.hdrs) + 4*len(s.words)
	layoutLen := kindLayoutSize * len(s.layout)
	out := make([]byte, int(hl)+typeLen+layoutLen+len(s.strs))
	order.PutUint16(out[0:], Magic)
	out[2] = 1
	out[3] = 0
	order.PutUint32(out[4:], hl)
	order.PutUint32(out[8:], 0)
	order.PutUint32(out[12:], uint32(typeLen))
	// libbpf's order: header, types, kind layout, strings.
	order.PutUint32(out[16:], uint32(typeLen+layoutLen))
	order.PutUint32(out[20:], uint32(len(s.strs)))
	if layoutLen > 0 {
		order.PutUint32(out[24:], uint32(typeLen))
		order.PutUint32(out[28:], uint32(layoutLen))
	}
	b := out[hl:]
	for i, h := range s.hdrs {
		order.PutUint32(b[0:], h.NameOff)
		order.PutUint32(b[4:], h.Info)
		order.PutUint32(b[8:], h.SizeType)
		b = b[12:]
		for _, w := range s.words[s.extStart[i]:s.extStart[i+1]] {
			order.PutUint32(b, w)
			b = b[4:]
		}
	}
	for _, l := range s.layout {
		b[0], b[1] = l.InfoSize, l.ElemSize
		order.PutUint16(b[2:], l.Flags)
		b = b[kindLayoutSize:]
	}
	copy(b, s.strs)
	return out
}
