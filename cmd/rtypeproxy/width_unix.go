//go:build linux || darwin

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// winsize is the kernel's struct winsize, which TIOCGWINSZ fills.
type winsize struct {
	Row, Col, Xpixel, Ypixel uint16
}

// terminalWidth asks the terminal f is for its width, and false when f
// is no terminal.
func terminalWidth(f *os.File) (cols int, ok bool) {
	var ws winsize
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno != 0 || ws.Col == 0 {
		return 0, false
	}
	return int(ws.Col), true
}
