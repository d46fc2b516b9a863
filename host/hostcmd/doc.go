// Package hostcmd is what a server command adds to package host: its
// operations as flags, and what they open around the host. [Options]
// register -addr, -matches, -log, -trace and -pcap, and -metrics with a
// handler such as host/prom's; [Options.Serve] opens the log, traces,
// capture file and metrics endpoint they name, runs the host and closes
// them. Package host itself stays a library: it reads no flags, serves no
// HTTP and writes no files.
package hostcmd
