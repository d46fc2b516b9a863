package session

import "time"

// smoothRTT folds a sample into srtt with weight 1/8, as TCP does, the first
// as is; clients sample Pongs (§7.2), servers acks (§5.1).
func smoothRTT(srtt *time.Duration, sample time.Duration) {
	if *srtt == 0 {
		*srtt = sample
		return
	}
	*srtt += (sample - *srtt) / 8
}
