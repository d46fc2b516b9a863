package conformance

var (
	serverHandshakeCases []Case
	serverWindowCases    []Case
	clientHandshakeCases []Case
	clientMessageCases   []Case
)
