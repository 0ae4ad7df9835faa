package config

import (
	"fmt"
	"strconv"
	"strings"
)

// MemoryBytes reads agent.memory_max the way systemd reads MemoryMax: a
// number of bytes with an optional K, M, G or T suffix (powers of 1024), or
// a percentage of total, the machine's memory. "" and "infinity" are 0:
// no limit.
func MemoryBytes(s string, total uint64) (uint64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "infinity" {
		return 0, nil
	}
	const fix = "; write bytes with an optional K, M, G or T suffix (512M, 4G) or a percentage of the machine's memory (25%)"
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f <= 0 || f > 100 {
			return 0, fmt.Errorf("%q is not a percentage from 0 to 100%s", s, fix)
		}
		return uint64(f / 100 * float64(total)), nil
	}
	mult := uint64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		case 'T', 't':
			mult = 1 << 40
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a memory size%s", s, fix)
	}
	return v * mult, nil
}

// CheckMemoryMax is agent.memory_max's check: "" when the value reads.
func CheckMemoryMax(s string) string {
	if _, err := MemoryBytes(s, 1<<40); err != nil {
		return err.Error()
	}
	return ""
}
