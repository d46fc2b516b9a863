// Package netem models the impairments of a network path, one direction at a
// time: scheduled blackouts, random and bursty loss, a bandwidth cap with a
// bounded queue, delay with jitter, reordering and duplication.
//
// The model is pure: it does no I/O, starts no goroutine and reads no clock.
// A [Link] is told when each datagram arrives and how large it is, and answers
// with an [Outcome]: dropped (and why), or how long to hold it and whether to
// send it twice. Its randomness comes from a PCG generator seeded by the
// caller and consumed at a fixed rate per datagram, so a run repeats exactly
// for the same seed and the same sequence of arrivals.
package netem
