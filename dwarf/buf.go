package dwarf

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// reader is a bounds-checked cursor over a byte slice. A read past end sets
// bad and returns zero; callers check bad once after a group of reads.
type reader struct {
	data []byte
	pos  int
	end  int
	big  bool
	bad  bool
}

func (b *reader) u8() uint8 {
	if b.pos >= b.end {
		b.bad = true
		return 0
	}
	v := b.data[b.pos]
	b.pos++
	return v
}

func (b *reader) u16() uint16 {
	if b.end-b.pos < 2 {
		b.bad = true
		b.pos = b.end
		return 0
	}
	p := b.data[b.pos : b.pos+2]
	b.pos += 2
	if b.big {
		return binary.BigEndian.Uint16(p)
	}
	return binary.LittleEndian.Uint16(p)
}

func (b *reader) u24() uint32 {
	if b.end-b.pos < 3 {
		b.bad = true
		b.pos = b.end
		return 0
	}
	p := b.data[b.pos : b.pos+3]
	b.pos += 3
	if b.big {
		return uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2])
	}
	return uint32(p[2])<<16 | uint32(p[1])<<8 | uint32(p[0])
}

func (b *reader) u32() uint32 {
	if b.end-b.pos < 4 {
		b.bad = true
		b.pos = b.end
		return 0
	}
	p := b.data[b.pos : b.pos+4]
	b.pos += 4
	if b.big {
		return binary.BigEndian.Uint32(p)
	}
	return binary.LittleEndian.Uint32(p)
}

func (b *reader) u64() uint64 {
	if b.end-b.pos < 8 {
		b.bad = true
		b.pos = b.end
		return 0
	}
	p := b.data[b.pos : b.pos+8]
	b.pos += 8
	if b.big {
		return binary.BigEndian.Uint64(p)
	}
	return binary.LittleEndian.Uint64(p)
}

// uintN reads an n-byte unsigned value, n in 1, 2, 4, 8.
func (b *reader) uintN(n int) uint64 {
	switch n {
	case 1:
		return uint64(b.u8())
	case 2:
		return uint64(b.u16())
	case 4:
		return uint64(b.u32())
	case 8:
		return b.u64()
	}
	b.bad = true
	return 0
}

func (b *reader) uleb() uint64 {
	if b.pos < b.end {
		if c := b.data[b.pos]; c < 0x80 {
			b.pos++
			return uint64(c)
		}
	}
	return b.ulebSlow()
}

func (b *reader) ulebSlow() uint64 {
	var v uint64
	var shift uint
	for b.pos < b.end {
		c := b.data[b.pos]
		b.pos++
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c < 0x80 {
			return v
		}
	}
	b.bad = true
	return 0
}

func (b *reader) sleb() int64 {
	var v int64
	var shift uint
	for b.pos < b.end {
		c := b.data[b.pos]
		b.pos++
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c < 0x80 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
	b.bad = true
	return 0
}

// bytes returns the next n bytes as a view.
func (b *reader) bytes(n uint64) []byte {
	if uint64(b.end-b.pos) < n {
		b.bad = true
		b.pos = b.end
		return nil
	}
	p := b.data[b.pos : b.pos+int(n) : b.pos+int(n)]
	b.pos += int(n)
	return p
}

// cstring returns the bytes up to the next NUL and skips the NUL.
func (b *reader) cstring() []byte {
	rest := b.data[b.pos:b.end]
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		b.pos += i + 1
		return rest[:i:i]
	}
	b.bad = true
	b.pos = b.end
	return nil
}

// strlen returns the length of the NUL-terminated string at b[off:], or -1
// if there is no NUL. Short strings (most DWARF names) are scanned eight
// bytes at a time inline; long ones fall back to bytes.IndexByte.
func strlen(b []byte, off int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	n := len(b)
	p := unsafe.Pointer(unsafe.SliceData(b))
	i := off
	for k := 0; k < 4 && n-i >= 8; k++ {
		v := *(*uint64)(unsafe.Add(p, i))
		if hostBigEndian {
			v = bits.ReverseBytes64(v)
		}
		if z := (v - lo) &^ v & hi; z != 0 {
			return i - off + bits.TrailingZeros64(z)/8
		}
		i += 8
	}
	if j := bytes.IndexByte(b[i:], 0); j >= 0 {
		return i - off + j
	}
	return -1
}
