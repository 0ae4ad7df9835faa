package callfacts

// Families of programs whose effect is a change to the machine, its disks,
// its accounts, a database or a remote store. The policy's rules judge
// each form in detail (which options make rsync delete, which fdisk only
// lists); the facts give every member of a family a coarse effect
// (effectOf), so a gate that denies every change needs no rule.
var (
	// FormatTools format or wipe a filesystem.
	FormatTools = []string{"mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.ntfs", "mkfs.exfat", "mkfs.f2fs", "mke2fs", "mkswap", "wipefs",
		// the BSDs' and macOS's newfs family (illumos's mkfs -F ufs is mkfs)
		"newfs", "newfs_msdos", "newfs_hammer", "newfs_hammer2", "newfs_apfs", "newfs_hfs", "newfs_exfat", "newfs_udf", "newfs_ext2fs", "newfs_lfs", "newfs_v7fs", "newfs_sysvbfs"}
	// DiskTools partition, wipe or erase disks and volumes.
	DiskTools = []string{"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "blkdiscard", "cryptsetup", "zpool", "lvremove", "vgremove", "pvremove", "mdadm", "hdparm", "nvme", "badblocks", "zfs", "diskutil", "diskpart", "format.com", "Format-Volume", "Clear-Disk"}
	// PowerTools stop or restart the machine.
	PowerTools = []string{"shutdown", "reboot", "poweroff", "halt", "init", "telinit", "systemctl", "kexec"}
	// SnapshotTools keep backups and snapshots of filesystems: a delete,
	// destroy, prune or thin among their first words removes them
	// (tmutil deletelocalsnapshots, btrfs subvolume delete, snapper rm,
	// timeshift --delete-all).
	SnapshotTools = []string{"tmutil", "btrfs", "snapper", "timeshift", "zfs-auto-snapshot", "sanoid", "syncoid", "vssadmin", "wbadmin", "velero", "duplicity", "rdiff-backup", "kopia"}
	// UserTools delete or change accounts.
	UserTools = []string{"userdel", "deluser", "groupdel", "delgroup", "passwd", "usermod"}
	// SyncTools copy trees, and may delete at the destination or source.
	SyncTools = []string{"rsync", "rclone", "aws", "gsutil", "azcopy", "s3cmd", "mc"}
	// SQLServerClients are the clients of database servers (sqlite3 and
	// duckdb open a local file the other facts see).
	SQLServerClients = []string{"psql", "mysql", "mariadb", "sqlcmd", "cockroach", "clickhouse-client", "clickhouse", "mongosh", "mongo",
		"pgcli", "mycli", "cqlsh", "snowsql", "redis-cli", "usql"}
	// remoteCLIs manage services, containers, clusters and cloud
	// resources through subcommands: a change verb among their first
	// words changes something (docker volume rm, kubectl delete, aws ec2
	// terminate-instances, systemctl stop).
	remoteCLIs = []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose", "kubectl", "oc", "k", "helm", "systemctl", "launchctl", "service",
		"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "gcloud", "az", "doctl", "linode-cli", "hcloud",
		"flyctl", "fly", "vercel", "heroku", "oci", "ibmcloud", "virsh", "vagrant", "multipass", "lxc", "incus"}
)
