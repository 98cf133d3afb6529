package parser

// toolsExamples are the examples of the entries of programs_tools.go, beside
// them: see programExamples.
var toolsExamples = map[string][]programExample{
	// Entries for what they change of later paths (changes), whose
	// operands are read as a program without an entry's are: every one,
	// recursively. Not run: mount and umount need a mount namespace,
	// bindfs and the renames are not installed here.
	"mount":     {{cmd: "mount --bind a b", reading: "a:rec b:rec"}},
	"umount":    {{cmd: "umount b", reading: "b:rec"}},
	"bindfs":    {{cmd: "bindfs a b", reading: "a:rec b:rec"}},
	"perl":      {{cmd: "perl -pi -e s/a/b/ a", reading: "i:maybe s/a/b/:maybe a:w", setup: "a"}},
	"cc":        {{cmd: "cc -o x a.c", reading: "x:rec a.c:rec"}},
	"clang":     {{cmd: "clang -o x a.c", reading: "x:rec a.c:rec"}},
	"docker":    {{cmd: "docker run -v x:y img", reading: "run:rec x:y:rec img:rec"}},
	"ffmpeg":    {{cmd: "ffmpeg -i a.mp4 b.mp4", reading: "a.mp4:rec b.mp4:rec"}},
	"g++":       {{cmd: "g++ -o x a.cc", reading: "x:rec a.cc:rec"}},
	"gcc":       {{cmd: "gcc -o x a.c", reading: "x:rec a.c:rec"}},
	"gdb":       {{cmd: "gdb -ex run ./x", reading: "x:maybe run:rec ./x:rec hit:gdb_-ex"}},
	"java":      {{cmd: "java -jar a.jar", reading: "ar:maybe r:maybe a.jar:rec"}},
	"javac":     {{cmd: "javac -d out A.java", reading: "out:rec A.java:rec"}},
	"kubectl":   {{cmd: "kubectl get pods", reading: "get:rec pods:rec"}},
	"ruby":      {{cmd: "ruby a.rb", reading: "a.rb:rec"}},
	"systemctl": {{cmd: "systemctl status x", reading: "status:rec x:rec"}},
	"terraform": {{cmd: "terraform plan", reading: "plan:rec"}},
	// Destructive: a file system made on the device, its contents lost.
	"mkfs":    {{cmd: "mkfs -t ext4 /dev/sdb1", reading: "ext4:rec /dev/sdb1:rec"}},
	"mkfs.*":  {{cmd: "mkfs.ext4 /dev/sdb1", reading: "/dev/sdb1:rec"}},
	"mke2fs":  {{cmd: "mke2fs /dev/sdb1", reading: "/dev/sdb1:rec"}},
	"mkswap":  {{cmd: "mkswap /dev/sdb2", reading: "/dev/sdb2:rec"}},
	"wipefs":  {{cmd: "wipefs -a /dev/sdb", reading: "/dev/sdb:rec"}},
	"mkdosfs": {{cmd: "mkdosfs /dev/sdc1", reading: "/dev/sdc1:rec"}},
	"mkntfs":  {{cmd: "mkntfs /dev/sdc1", reading: "/dev/sdc1:rec"}},
}
