package notify

import "strings"

// A Telegram button carries its action and task in callback_data (at most
// 64 bytes): "warden:approve:ID", "warden:deny:ID", "warden:always:ID".

// Actions a button can carry.
const (
	ActApprove = "approve"
	ActDeny    = "deny"
	ActAlways  = "always" // approve, and the same call for the rest of the task
)

const callbackPrefix = "warden:"

// CallbackData is a button's callback_data.
func CallbackData(action, task string) string { return callbackPrefix + action + ":" + task }

// ParseCallback reads a button's callback_data; ok is false for data
// warden did not make.
func ParseCallback(data string) (action, task string, ok bool) {
	rest, ok := strings.CutPrefix(data, callbackPrefix)
	if !ok {
		return "", "", false
	}
	action, task, ok = strings.Cut(rest, ":")
	if !ok || task == "" {
		return "", "", false
	}
	switch action {
	case ActApprove, ActDeny, ActAlways:
		return action, task, true
	}
	return "", "", false
}
