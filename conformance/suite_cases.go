package conformance

import (
	"slices"
	"strconv"
	"strings"
)

// serverCases lists every server case, by section then number.
func serverCases() []Case {
	return sorted(serverHandshakeCases, serverWindowCases, serverFramingCases,
		serverMessageCases, serverGameCases, serverBeyondCases)
}

// clientCases lists every client case, by section then number.
func clientCases() []Case {
	return sorted(clientHandshakeCases, clientPacketCases, clientMessageCases)
}

func sorted(lists ...[]Case) []Case {
	var all []Case
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.SortStableFunc(all, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	return all
}

// compareIDs orders ids such as "5.2/3" by section numbers, then case
// number, so that 5.10 follows 5.9 and 4.2/10 follows 4.2/9.
func compareIDs(a, b string) int {
	na, nb := idNumbers(a), idNumbers(b)
	return slices.Compare(na, nb)
}

func idNumbers(id string) []int {
	sec, n, _ := strings.Cut(id, "/")
	var out []int
	for _, f := range strings.Split(sec, ".") {
		v, _ := strconv.Atoi(f)
		out = append(out, v)
	}
	v, _ := strconv.Atoi(n)
	return append(out, -1, v) // -1 ends the section, so 5.2/x precede 5.2.1/x
}
