package agent

// Claude Code's Notification hook says what it shows the user in
// notification_type. Every type that means "a person must act before the
// agent goes on" makes the agent Waiting: an agent left Working there
// would sit unanswered until the idle timeout. Claude Code 2.1.330 knows
// the types below; it sends agent_needs_input when auto mode cannot run
// its safety check and stops at a dialog (the default permission mode,
// offline or through a gateway).

type notifyKind int

const (
	notifyInfo    notifyKind = iota // nothing to answer: the state stays
	notifyWaits                     // a prompt or dialog waits for a person
	notifyUnknown                   // newer than warden: recorded and shown
)

var notificationKinds = map[string]notifyKind{
	"idle_prompt":            notifyWaits, // the turn ended; the prompt waits for input
	"permission_prompt":      notifyWaits, // a permission dialog
	"agent_needs_input":      notifyWaits, // auto mode stopped at a dialog
	"elicitation_dialog":     notifyWaits, // an MCP server asks for input (form)
	"elicitation_url_dialog": notifyWaits, // an MCP server asks to open a URL
	"auth_success":           notifyInfo,
	"elicitation_complete":   notifyInfo,
	"elicitation_response":   notifyInfo,
	"agent_completed":        notifyInfo, // a background agent finished; the session goes on
}

// notificationKind classifies a notification_type; "" (an old Claude
// Code that sent none) and any type not listed are unknown.
func notificationKind(typ string) notifyKind {
	if k, ok := notificationKinds[typ]; ok {
		return k
	}
	return notifyUnknown
}

// WaitingNotification reports whether a notification_type means the
// agent waits for a person.
func WaitingNotification(typ string) bool { return notificationKind(typ) == notifyWaits }
