package netem

// Seed derives the seed of one direction of one client's link from the
// run's base seed, so that every link draws its own stream and a run with
// the same base and the same clients repeats. Clients are numbered 0, 1, …
// in the order they first send; up is the client → server direction.
// For one base, distinct (client, up) pairs get distinct seeds: the mix is
// a bijection and is fed distinct values.
func Seed(base uint64, client int, up bool) uint64 {
	n := uint64(client) << 1
	if up {
		n |= 1
	}
	return mix(mix(base) + n)
}

// mix is the SplitMix64 finaliser: a bijection on 64 bits that spreads
// every input bit over the whole output.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
