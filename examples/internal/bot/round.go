package bot

import "time"

// Round rounds d to three significant figures, 231.087µs to 231µs and
// 1.1449ms to 1.14ms: every duration the demo and the bots print goes
// through it, so that one measure reads alike everywhere.
func Round(d time.Duration) time.Duration {
	a := d
	if a < 0 {
		a = -a
	}
	unit := time.Duration(1)
	for unit < 1e15 && a >= 1000*unit {
		unit *= 10
	}
	return d.Round(unit)
}
