package callfacts

import (
	"strconv"
	"strings"
)

// What some commands print, for callOutput: a tool's documented shell
// setup and seq's numbers.

// shellSetup reports whether a command prints the shell setup its
// documentation says to eval: environment exports, PATH changes, prompt
// hooks and completions (ssh-agent -s, direnv export bash, pyenv init -,
// brew shellenv, starship init bash, kubectl completion bash).
func shellSetup(name string, args []string) bool {
	pos := func(i int) string {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if i == 0 {
				return a
			}
			i--
		}
		return ""
	}
	switch name {
	case "ssh-agent", "dircolors", "gpg-agent":
		return true
	case "keychain":
		return HasArg(args, "--eval")
	case "direnv":
		return pos(0) == "export" || pos(0) == "hook"
	case "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv", "tfenv", "zoxide", "starship", "atuin", "mcfly", "oh-my-posh", "pyenv-virtualenv":
		return pos(0) == "init" || pos(0) == "virtualenv-init"
	case "fnm", "opam":
		return pos(0) == "env"
	case "mise", "rtx":
		return pos(0) == "activate" || pos(0) == "env" || pos(0) == "hook-env"
	case "brew":
		return pos(0) == "shellenv"
	case "conda", "micromamba", "mamba":
		return strings.HasPrefix(pos(0), "shell.") || pos(0) == "shell" && pos(1) == "hook"
	case "thefuck":
		return HasArg(args, "--alias")
	case "luarocks":
		return pos(0) == "path"
	case "minikube":
		return pos(0) == "docker-env" || pos(0) == "podman-env"
	case "docker-machine":
		return pos(0) == "env"
	case "register-python-argcomplete":
		return true
	}
	// kubectl completion bash, gh completion -s zsh, helm completion bash
	return pos(0) == "completion" || pos(0) == "completions"
}

// seqOutput prints seq [FIRST [INCR]] LAST for small integer ranges (at
// most 16 numbers: seq 1 1000 | xargs kill -9 reaches kill -9 1).
func seqOutput(args []string) text {
	var n []int
	for _, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil {
			return text{}
		}
		n = append(n, v)
	}
	first, inc, last := 1, 1, 0
	switch len(n) {
	case 1:
		last = n[0]
	case 2:
		first, last = n[0], n[1]
	case 3:
		first, inc, last = n[0], n[1], n[2]
	default:
		return text{}
	}
	if inc <= 0 {
		return text{}
	}
	var b strings.Builder
	for i, v := 0, first; v <= last && i < 16; i, v = i+1, v+inc {
		b.WriteString(strconv.Itoa(v) + "\n")
	}
	return text{s: b.String(), known: true}
}
