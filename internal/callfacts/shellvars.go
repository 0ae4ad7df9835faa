package callfacts

// shellVars are the variables every shell sets to a shell's own path:
// $SHELL is the user's login shell, $BASH the running bash. A program
// named by one is a shell whatever its value ("${SHELL}" <(curl …),
// curl … | $SHELL, $BASH -c '…'), so the line is read as that shell's
// and its payload or fed script judged, not set aside as an unknown
// program. ProgramName has lowered the name.
var shellVars = map[string]string{"$shell": "sh", "$bash": "bash"}

// IsShellVar reports whether a command's raw name is one of shellVars
// ("$SHELL", "${SHELL}", "$BASH"): its program is known to be a shell.
func IsShellVar(raw string) bool {
	_, ok := shellVars[ProgramName(raw)]
	return ok
}
