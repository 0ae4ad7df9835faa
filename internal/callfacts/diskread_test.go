package callfacts

import (
	"strings"
	"testing"
)

// TestDiskReadsAndDeviceScratch: a disk tool run to measure has no
// effect, dd copying into a file overwrites it (zeros still truncate), and
// an app's cache or a debug build's files on a device are scratch there.
func TestDiskReadsAndDeviceScratch(t *testing.T) {
	for cmd, want := range map[string]string{
		"hdparm -tT /dev/sda":                             "",
		"badblocks -sv /dev/sdb":                          "",
		"badblocks -wsv /dev/sdb":                         "delete:system",
		"hdparm -W0 /dev/sdb":                             "delete:system",
		"dd if=/dev/sdb of=~/card.img bs=4M":              "overwrite:home-data",
		"dd if=/dev/zero of=~/card.img bs=4M":             "truncate:home-data",
		"adb shell rm -rf /sdcard/Android/data/a.b.debug": "recursive-delete:temp",
		"adb shell rm -rf /sdcard/Android/data/a.b/cache": "recursive-delete:temp",
		"adb shell rm -rf /sdcard/Android/data/a.b/files": "recursive-delete:elsewhere",
		"rm -rf /sdcard/Android/data/a.b.debug/cache":     "recursive-delete:elsewhere",
	} {
		var got []string
		for _, tc := range bash(cmd).Touches() {
			got = append(got, string(tc.Effect)+":"+string(tc.Zone))
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q: touches %q, want %q", cmd, g, want)
		}
	}
	for name, want := range map[string]bool{".DS_Store": true, "x.part": true, "*.crdownload": true, "notes.md~": true,
		"nohup.out": true, "report.csv": false, ".tmp": false, "*.csv": false} {
		if LeftoverName(name) != want {
			t.Errorf("LeftoverName(%q) = %v, want %v", name, !want, want)
		}
	}
}
