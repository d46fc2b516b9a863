package conformance

var (
	serverMessageCases   []Case
	serverGameCases      []Case
	serverBeyondCases    []Case
	clientHandshakeCases []Case
	clientMessageCases   []Case
)
