package mmsg

// The system-call numbers of recvmmsg(2) and sendmmsg(2); package syscall
// predates the second.
const (
	sysRecvmmsg = 299
	sysSendmmsg = 307
)
