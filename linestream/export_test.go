package linestream

// SkeletonHits returns how many lines d found valid by their skeleton, over
// every code, since it was made (Reset keeps the count, as it keeps the
// skeletons); 0 for a decoder that keeps none.
func (d *Decoder) SkeletonHits() int {
	if d.skel == nil {
		return 0
	}
	n := 0
	for i := range d.skel.codes {
		n += d.skel.codes[i].Hits()
	}
	return n
}

// MasksAt returns the index in d's buffer of the block whose masks d
// reads short string lines from (shortLine), or a negative number where it
// has none.
func (d *Decoder) MasksAt() int { return d.mb }
