package layout

// printFlatDims prints an array's dimensions as one, their product
// (--flat_arrays), as pahole's array_type__fprintf does: an empty first
// dimension ends the product there, a zero dimension after it restarts
// it, and a product of 0 prints as "[]" when the array may be flexible
// (the last member of a struct with others, not in a union).
func printFlatDims(b *buf, dims []uint32, flexible bool) {
	var flat uint64
	for i, d := range dims {
		if d == 0 && i == 0 {
			break
		}
		if flat == 0 {
			flat = uint64(d)
		} else {
			flat *= uint64(d)
		}
	}
	if flat != 0 || !flexible {
		b.Byte('[')
		b.Uint(flat)
		b.Byte(']')
		return
	}
	b.Str("[]")
}
