package task

import (
	"strings"
	"testing"
)

// Every profile stands for valid operations, and adding one keeps what
// the task listed itself, without duplicates.
func TestProfiles(t *testing.T) {
	for name := range Profiles {
		tk := Task{Prompt: "x", Project: "/p"}
		if err := tk.WithProfile(name); err != nil || tk.Check() != nil || !tk.HasRules() {
			t.Errorf("profile %s: %v %v", name, err, tk.Check())
		}
	}
	tk := Task{Prompt: "x", Project: "/p", Deny: []string{"network"}, Allow: []string{"merge"}}
	if err := tk.WithProfile("sealed"); err != nil || strings.Join(tk.Deny, ",") != "network,write,commit" || strings.Join(tk.Allow, ",") != "merge" {
		t.Errorf("sealed over deny network: %v %v %v", tk.Allow, tk.Deny, err)
	}
	if err := tk.WithProfile("nope"); err == nil || !strings.Contains(err.Error(), "offline, publish, read-only, sealed") {
		t.Errorf("unknown profile: %v", err)
	}
}
