package config

import (
	"slices"
	"testing"
)

// policyKeys is a test registry that gives each tightening policy a key, so
// the policies are tested before any real key uses them. The fields are
// borrowed from Config by type.
var policyKeys = []Key{
	{Name: "guard.min_score", Kind: Int, Default: 10, Min: 0, Max: 100, Policy: RaiseOnly, Doc: "d",
		Field: func(c *Config) any { return &c.Context.Threshold }},
	{Name: "guard.max_lines", Kind: Int, Default: 800, Min: 1, Max: 10000, Policy: LowerOnly, Doc: "d",
		Field: func(c *Config) any { return &c.Hook.ReadTimeoutMS }},
	{Name: "guard.strict", Kind: Bool, Default: false, Policy: EnableOnly, Doc: "d",
		Field: func(c *Config) any { return &c.Capture }},
	{Name: "guard.blocked_paths", Kind: Strings, Default: []string{"~/.ssh"}, Policy: UnionOnly, Doc: "d",
		Field: func(c *Config) any { return &c.DisabledHandlers }},
	{Name: "theme", Kind: Int, Default: 1, Min: 1, Max: 9, Policy: Free, Doc: "d",
		Field: func(c *Config) any { return &c.RetentionDays }},
}

func TestProjectPolicies(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		check         func(c *Config) bool
		sources       map[string]string
		problems      []want
	}{
		{
			name:    "raise-only accepts a higher value",
			user:    "[guard]\nmin_score = 20\n",
			project: "[guard]\nmin_score = 30\n",
			check:   func(c *Config) bool { return c.Context.Threshold == 30 },
			sources: map[string]string{"guard.min_score": "project"},
		},
		{
			name:    "raise-only accepts an equal value",
			user:    "[guard]\nmin_score = 20\n",
			project: "guard.min_score = 20\n",
			check:   func(c *Config) bool { return c.Context.Threshold == 20 },
		},
		{
			name:     "raise-only refuses a lower value",
			user:     "[guard]\nmin_score = 20\n",
			project:  "[guard]\n# too lax\nmin_score = 5\n",
			check:    func(c *Config) bool { return c.Context.Threshold == 20 },
			sources:  map[string]string{"guard.min_score": "user"},
			problems: []want{{"project", 3, "guard.min_score", "guard.min_score = 5 would lower the user value 20; it is raise-only (a project may raise it, never lower it), so 20 stands; set it to at least 20"}},
		},
		{
			name:     "raise-only against the default",
			project:  "guard.min_score = 5\n",
			check:    func(c *Config) bool { return c.Context.Threshold == 10 },
			problems: []want{{"project", 1, "guard.min_score", "would lower the default 10"}},
		},
		{
			name:    "lower-only accepts a lower value",
			project: "[guard]\nmax_lines = 500\n",
			check:   func(c *Config) bool { return c.Hook.ReadTimeoutMS == 500 },
		},
		{
			name:     "lower-only refuses a higher value",
			user:     "[guard]\nmax_lines = 600\n",
			project:  "[guard]\nmax_lines = 5000\n",
			check:    func(c *Config) bool { return c.Hook.ReadTimeoutMS == 600 },
			problems: []want{{"project", 2, "guard.max_lines", "would raise the user value 600; it is lower-only"}},
		},
		{
			name:    "enable-only accepts true",
			project: "[guard]\nstrict = true\n",
			check:   func(c *Config) bool { return c.Capture },
			sources: map[string]string{"guard.strict": "project"},
		},
		{
			name:     "enable-only refuses to switch off",
			user:     "[guard]\nstrict = true\n",
			project:  "[guard]\nstrict = false\n",
			check:    func(c *Config) bool { return c.Capture },
			problems: []want{{"project", 2, "guard.strict", "guard.strict = false would switch off what the user value switches on; it is enable-only"}},
		},
		{
			name:    "enable-only false over false is harmless",
			project: "[guard]\nstrict = false\n",
			check:   func(c *Config) bool { return !c.Capture },
			sources: map[string]string{"guard.strict": "default"},
		},
		{
			name:    "union-only adds project entries to the user's",
			user:    "[guard]\nblocked_paths = [\"/etc\"]\n",
			project: "[guard]\nblocked_paths = [\"/etc\", \"secrets/\"]\n",
			check: func(c *Config) bool {
				return slices.Equal(c.DisabledHandlers, []string{"/etc", "secrets/"})
			},
			sources: map[string]string{"guard.blocked_paths": "user+project"},
		},
		{
			name:    "union-only cannot remove the default's entries",
			project: "[guard]\nblocked_paths = []\n",
			check:   func(c *Config) bool { return slices.Equal(c.DisabledHandlers, []string{"~/.ssh"}) },
			sources: map[string]string{"guard.blocked_paths": "default"},
		},
		{
			name:    "union-only adds to the default's entries",
			project: "[guard]\nblocked_paths = [\"x\"]\n",
			check:   func(c *Config) bool { return slices.Equal(c.DisabledHandlers, []string{"~/.ssh", "x"}) },
			sources: map[string]string{"guard.blocked_paths": "default+project"},
		},
		{
			name:    "free overrides either way",
			user:    "theme = 5\n",
			project: "theme = 2\n",
			check:   func(c *Config) bool { return c.RetentionDays == 2 },
			sources: map[string]string{"theme": "project"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			userFile, projectDir := files(t, tt.user, tt.project)
			r := resolve(policyKeys, userFile, projectDir)
			if tt.check != nil && !tt.check(r.cfg) {
				t.Errorf("config = %+v", *r.cfg)
			}
			checkProblems(t, r.problems, userFile, projectDir, tt.problems)
			for _, s := range r.settings(policyKeys) {
				if w, ok := tt.sources[s.Key]; ok && s.Source != w {
					t.Errorf("source of %s = %q, want %q", s.Key, s.Source, w)
				}
			}
		})
	}
}

// The union must not write into the user's list or the registry default.
func TestUnionDoesNotAlias(t *testing.T) {
	userFile, projectDir := files(t, "", "[guard]\nblocked_paths = [\"x\"]\n")
	resolve(policyKeys, userFile, projectDir)
	if d := policyKeys[3].Default.([]string); !slices.Equal(d, []string{"~/.ssh"}) {
		t.Fatalf("registry default changed: %v", d)
	}
}
