package conformance

var (
	serverHandshakeCases []Case
	serverWindowCases    []Case
	serverMessageCases   []Case
	serverGameCases      []Case
	serverBeyondCases    []Case
)
