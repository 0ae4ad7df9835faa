package policy

import (
	"maps"
	"slices"
	"strings"
)

// vmOps delete virtual machines, local clusters and their disks:
// program → words (all must appear). Adding a tool is a line here.
var vmOps = map[string][][]string{
	"virsh":      {{"undefine"}, {"vol-delete"}, {"pool-delete"}, {"destroy"}},
	"VBoxManage": {{"unregistervm", "--delete"}, {"closemedium", "--delete"}}, "vboxmanage": {{"unregistervm", "--delete"}},
	"multipass": {{"delete", "--purge"}, {"delete", "--all"}, {"purge"}}, "limactl": {{"delete"}, {"rm"}}, "colima": {{"delete"}},
	"podman": {{"machine", "rm"}, {"machine", "reset"}, {"system", "reset"}}, "minikube": {{"delete", "--all"}, {"delete", "--purge"}},
	"kind": {{"delete", "clusters"}}, "k3d": {{"cluster", "delete", "--all"}}, "vagrant": {{"destroy"}}, "utmctl": {{"delete"}},
	"prlctl": {{"delete"}}, "vmrun": {{"deleteVM"}}, "qm": {{"destroy"}}, "pct": {{"destroy"}}, "lxc": {{"delete"}}, "incus": {{"delete"}},
	"docker": {{"context", "rm"}, {"buildx", "prune", "-a"}, {"buildx", "rm"}}, "tart": {{"delete"}}, "orb": {{"delete"}}, "orbctl": {{"delete"}},
	"wsl": {{"--unregister"}}, "wsl.exe": {{"--unregister"}},
}

// vmEntryVerbs run a command inside the machine (limactl shell, multipass
// exec, vagrant ssh): its words are that command's, not a delete of the
// machine.
var vmEntryVerbs = map[string]bool{"shell": true, "exec": true, "ssh": true, "run": true, "enter": true, "attach": true}

// vmDeleteRule: a local virtual machine, cluster or builder deleted with
// its disks: what it held is gone, and it is not the project's.
func vmDeleteRule() Rule {
	return cmdRule("core.destroy:vm-delete", Deny, "Deleting virtual machines, local clusters or builders with their disks (virsh undefine, VBoxManage unregistervm --delete, multipass delete --purge, limactl delete, podman machine rm, minikube delete --all, kind delete clusters, vagrant destroy of a machine by global id, wsl --unregister): their data is gone", vmNames(),
		func(e *Env, c *Cmd) string {
			if len(c.Pos) > 0 && vmEntryVerbs[c.Pos[0]] {
				return "" // limactl shell default rm -rf ~/x: a command run inside the machine, read as such
			}
			a := " " + strings.Join(c.Args, " ") + " "
			for _, words := range vmOps[c.Name] {
				ok := true
				for _, w := range words {
					if !strings.Contains(a, " "+w+" ") && !(strings.HasPrefix(w, "-") && strings.Contains(a, " "+w)) {
						ok = false
						break
					}
				}
				if ok && !devMachines(c, words) {
					return c.Name + " " + strings.Join(words, " ") + " deletes a machine or cluster with its data: " + c.String()
				}
			}
			return ""
		},
		[]string{"virsh undefine win10 --remove-all-storage", "VBoxManage unregistervm \"Ubuntu Dev\" --delete", "multipass delete --all --purge", "limactl delete -f default", "colima delete -f",
			"podman machine rm -f", "minikube delete --all --purge", "kind delete clusters --all", "vagrant destroy -f 1a2b3c4", "docker context rm -f prod", "docker buildx prune -af", "wsl.exe --unregister Ubuntu"},
		[]string{"virsh list --all", "multipass list", "limactl list", "podman machine ls", "minikube status", "kind get clusters", "vagrant status", "docker context ls", "kind delete cluster --name dev", "vagrant destroy -f", "vagrant destroy -f web db"})
}

// devMachines: every machine c names, besides the rule's words, is a
// local one named for development or tests (lxc delete dev1, limactl
// delete test-vm): the developer's own scratch machine. A name on a
// remote server (prod:web01) or none at all (--all) is not.
func devMachines(c *Cmd, words []string) bool {
	if c.Name == "vagrant" {
		return vagrantOwn(c)
	}
	n := 0
	for _, p := range c.Pos {
		if slices.Contains(words, p) {
			continue
		}
		if strings.Contains(p, ":") || !devName(p) || !onlyDevWords(p) {
			return false
		}
		n++
	}
	return n > 0 && !c.Has("--all", "-a")
}

// vagrantOwn: vagrant destroy acts on the machines of the project's
// Vagrantfile, which that file builds again (vagrant destroy -f,
// vagrant destroy -f fleet-test-fedora40): the developer's own. A global
// id (the 7 hex digits of vagrant global-status) may name another
// project's machine.
func vagrantOwn(c *Cmd) bool {
	for _, p := range c.Pos {
		if len(p) == 7 && strings.Trim(p, "0123456789abcdef") == "" {
			return false
		}
	}
	return true
}

// onlyDevWords: every word of name, numbers aside, says it is a dev or
// test machine (dev1, test-vm2, ci-box): "Ubuntu Dev" names a system
// someone set up, not a throwaway.
func onlyDevWords(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		w = strings.TrimRight(w, "0123456789")
		if w != "" && !devWords[w] && !testWords[w] && w != "vm" && w != "ct" && w != "box" && w != "container" {
			return false
		}
	}
	return true
}

func vmNames() []string { return slices.Sorted(maps.Keys(vmOps)) }
