package uistream

// SkeletonHits returns how many events d found valid by their skeleton,
// over every chunk type, since it was made (Reset keeps the count, as it
// keeps the skeletons); 0 for a decoder that keeps none.
func (d *Decoder) SkeletonHits() int {
	if d.skel == nil {
		return 0
	}
	n := 0
	for _, c := range d.skel.types {
		if c != nil {
			n += c.Hits()
		}
	}
	return n
}

// SlowChunks returns how many chunks of the stream the general path
// delivered: the others took Next's fast path.
func (d *Decoder) SlowChunks() int { return d.slow }
