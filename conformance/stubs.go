package conformance

var (
	clientHandshakeCases []Case
	clientMessageCases   []Case
)
