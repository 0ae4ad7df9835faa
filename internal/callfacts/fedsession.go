package callfacts

// A file-transfer or share client (smbclient, lftp, sftp, psftp) given no
// command on its line reads its session's commands from its input: a
// here-document or what the pipe feeds it is the script it runs on the
// server (smbclient //fs01/share <<EOF deltree projects EOF deletes a
// tree there as surely as smbclient -c 'deltree projects'). Read as the
// payload of a remote shell, the same rules judge both forms; ls, get,
// dir and mget stay routine as they are with -c.

// fedSession: name is a remote shell of rshell.txt marked fed and args
// give it no command of their own, so the text fed to it is its script.
func fedSession(name string, args []string) bool {
	rules := rshellRules()[name]
	fed := false
	for i := range rules {
		fed = fed || rules[i].fed
	}
	if !fed {
		return false
	}
	p, _ := remoteShellPayload(name, args)
	return p == ""
}

// FileSessionTools are the file-transfer and share clients whose
// session reads its commands from its input (rshell.txt fed): their
// script, given by an option or fed, is Cmd.Payload.
func FileSessionTools() []string {
	var out []string
	for _, name := range RemoteShellTools() {
		for _, r := range rshellRules()[name] {
			if r.fed {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
