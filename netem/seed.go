package netem

// Seed derives the seed of one link from a run's base seed and the words
// that name the link, so that every link draws its own stream and a run
// with the same base and the same links repeats: rtypeproxy names a link by
// its client's number (0, 1, … in the order clients first send) and
// direction, as client<<1 | 1 for client → server; an in-memory network of
// rtypetest by its two addresses. The words are folded in turn through a
// bijective mix, so for one base and one word, distinct words get distinct
// seeds; the values are pinned (TestSeedPinned) so a seed repeats across
// versions.
func Seed(base uint64, link ...uint64) uint64 {
	h := mix(base)
	for _, w := range link {
		h = mix(h + w)
	}
	return h
}

// mix is the SplitMix64 finaliser: a bijection on 64 bits that spreads
// every input bit over the whole output.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
