package callfacts

import (
	"path"
)

// Programs whose targets are not in their arguments: git clean deletes
// the untracked files of the tree it runs in, crontab -r the user's whole
// crontab. Their touches name a stand-in path below the real place, so
// the verdict table judges the place (git -C ~ clean -fdx: recursive
// delete · home data; in the project: project).

// untrackedIn stands for the untracked files below a directory.
const untrackedIn = "(untracked files)"

// userCrontab stands for the user's crontab: a system spool file.
const userCrontab = "/var/spool/cron/crontabs"

// jobTouches are the touches of git clean and crontab -r, nil for other
// commands.
func jobTouches(c *Cmd, home string) []Touch {
	switch {
	case c.Name == "git" && len(c.Pos) > 0 && c.Pos[0] == "clean" && c.Has("-f", "--force") && !c.Has("-n", "--dry-run"):
		e := deleteEffect(c.Has("-d"))
		roots := c.Pos[1:]
		if len(roots) == 0 {
			roots = []string{"."}
		}
		out := []Touch{}
		for _, r := range roots {
			d := NormPath(r, c.Dir, home)
			if d != home && within(d, home) && ZoneOf(d, home, "") == ZoneHomeData {
				// another repository under home (git -C ~/src/app clean):
				// its untracked files are build output, not the user's data
				continue
			}
			out = append(out, Touch{Effect: e, Path: path.Join(d, untrackedIn)})
		}
		return out
	case c.Name == "crontab" && c.Has("-r"):
		user := "(user)"
		for i, a := range c.Args {
			if a == "-u" && i+1 < len(c.Args) {
				user = c.Args[i+1]
			}
		}
		return []Touch{{Effect: PathDelete, Path: path.Join(userCrontab, user)}}
	}
	return nil
}
