//go:build !linux

package cli

// withTimerSlack: timer slack is a Linux setting (see keeper_slack_linux.go).
func withTimerSlack() {}
