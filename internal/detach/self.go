package detach

import "os"

// executable is the binary Start runs for bin "": this one.
func executable() (string, error) { return os.Executable() }
