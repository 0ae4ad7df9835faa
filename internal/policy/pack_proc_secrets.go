package policy

import (
	"strings"
)

// Processes that hold secrets in memory — the SSH and GPG agents, the
// keyring and password-manager daemons, the browser, the cloud and vault
// agents — give them up to whoever reads that memory: a core dump
// (gcore), a debugger attached (gdb -p, lldb -p), /proc/PID/mem read.
// Dumping one of them is taking its keys: denied. A prompt made to look
// like the system's asking for the password (osascript display dialog
// with a hidden answer, zenity --password) is phishing the user: denied.

// secretHolders are processes whose memory holds keys or passwords.
var secretHolders = []string{"ssh-agent", "gpg-agent", "gnome-keyring-daemon", "gnome-keyring", "kwalletd", "kwalletd5", "kwalletd6", "keepassxc", "1password",
	"op-ssh-sign", "bitwarden", "bw", "secretd", "securityd", "lsass", "lsass.exe", "vault", "vault-agent", "aws-vault", "pass", "pinentry", "keychain",
	"chrome", "google-chrome", "chromium", "firefox", "msedge", "brave", "safari", "sshd", "teleport", "tsh", "gcloud", "keyring"}

// memoryReaders dump or attach to a process's memory.
var memoryReaders = []string{"gcore", "gdb", "lldb", "procdump", "procdump64", "minidump", "rr", "pmap", "memdump", "dotnet-dump", "gdbserver", "strace", "ltrace"}

// dumpTarget names the secret holder whose memory c reaches through a
// pid the line looks up (pgrep ssh-agent, pidof gpg-agent) or names.
func dumpTarget(e *Env, c *Cmd) string {
	if c.Name == "pmap" || c.Name == "strace" || c.Name == "ltrace" {
		if !c.Has("-p") && c.Name != "pmap" {
			return ""
		}
		if c.Name == "pmap" && !c.Has("-X", "-XX") {
			return ""
		}
	}
	if c.Name == "gdb" || c.Name == "lldb" {
		if !c.Has("-p", "--pid", "-pid", "--attach-pid", "--attach-name", "-n") && !strings.Contains(strings.Join(c.Args, " "), "attach") {
			return ""
		}
	}
	for i := range e.F.Commands {
		f := &e.F.Commands[i]
		if f.Name != "pgrep" && f.Name != "pidof" && f.Name != "pgrep.exe" || !f.Captured {
			continue
		}
		if n := secretHolderIn(f.Pos); n != "" {
			return n
		}
	}
	return secretHolderIn(c.Pos)
}

func secretHolderIn(args []string) string {
	for _, a := range args {
		l := strings.ToLower(strings.Trim(a, `"'^$`))
		for _, h := range secretHolders {
			if l == h || strings.HasSuffix(l, "/"+h) {
				return h
			}
		}
	}
	return ""
}

// fakePrompt matches a dialog asking for a password with its answer
// hidden: osascript's display dialog … with hidden answer.
var fakePrompt = re(`(?i)display\s+dialog[^\n]*(?:hidden\s+answer|password)|default\s+answer\s+""\s+with\s+hidden`)

func procSecretRules() []Rule {
	return []Rule{
		cmdRule("core.local:dump-secret-holder", Deny, "Dumping or attaching to the memory of a process that holds keys or passwords (gcore or gdb -p on ssh-agent, gpg-agent, a keyring or password-manager daemon, the browser, lsass): its secrets are read out", memoryReaders,
			func(e *Env, c *Cmd) string {
				if h := dumpTarget(e, c); h != "" {
					return c.Name + " reads the memory of " + h + ", which holds keys or passwords: " + c.String()
				}
				return ""
			},
			[]string{"sudo gcore -o /tmp/agentdump \"$(pgrep -u dev ssh-agent)\"", "gdb -p $(pidof gpg-agent) -batch -ex 'generate-core-file /tmp/g'", "procdump -ma lsass.exe /tmp/l.dmp",
				"lldb -p $(pgrep keepassxc) --batch -o 'process save-core /tmp/k.core'", "sudo pmap -X $(pgrep gnome-keyring-daemon)"},
			[]string{"gcore -o /tmp/app $(pgrep -f 'node server.js')", "gdb -p $(pidof myapp)", "gdb ./build/app core", "pgrep ssh-agent", "strace -f ./app", "lldb ./target/debug/cli"}),
		cmdRule("core.local:fake-password-prompt", Deny, "Showing a dialog made to look like the system's that asks for the user's password with the answer hidden (osascript display dialog … with hidden answer, zenity --password, kdialog --password): phishing the user's password", []string{"osascript", "zenity", "kdialog", "yad"},
			func(e *Env, c *Cmd) string {
				switch c.Name {
				case "osascript":
					if m := fakePrompt.FindString(strings.Join(c.Args, " ")); m != "" {
						return "osascript asks for the user's password in a dialog of its own: " + m
					}
				default:
					if c.Has("--password") || c.Name == "yad" && c.Has("--entry") && strings.Contains(strings.Join(c.Args, " "), "hide") {
						return c.Name + " asks for the user's password in a dialog of its own: " + c.String()
					}
				}
				return ""
			},
			[]string{"osascript -e 'display dialog \"macOS needs your password to install a helper.\" default answer \"\" with hidden answer with icon caution' -e 'text returned of result' > /tmp/.p",
				"zenity --password --title='Authentication required' > /tmp/p", "kdialog --password 'Enter your password to continue'", "osascript -e 'display dialog \"Enter password\" default answer \"\"'"},
			[]string{"osascript -e 'display notification \"Build done\"'", "zenity --info --text='Tests passed'", "osascript -e 'display dialog \"Deploy finished\" buttons {\"OK\"}'", "kdialog --msgbox done"}),
	}
}
