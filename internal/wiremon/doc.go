// Package wiremon judges the rules that hold of every datagram an R-Type
// v1 implementation sends (spec §2.2 to §8), over a whole exchange rather
// than a window: a [Monitor] is given every datagram between the
// implementation and its peers, in both directions, follows each
// connection by the client's address and the id its Welcome gave (§3,
// §4.3), and counts, per [Rule], how many datagrams, packets or messages
// it judged, how many broke the rule, and the first breach in words.
//
// The conformance suite reports its rules' cases from one Monitor per run;
// the fuzzer turns a breach into a finding. Each message is checked with
// the codec's own decoders, through package wiredump, as rtypedump reads
// it.
package wiremon
