package mmsg

// The system-call numbers of recvmmsg(2) and sendmmsg(2); package syscall
// predates the second.
const (
	sysRecvmmsg = 243
	sysSendmmsg = 269
)
