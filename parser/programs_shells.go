package parser

// programsShells: the shells and the wrappers: programs that run another command, analysed on its own (see wrapSpec).
var programsShells = map[string]program{
	"ash": {wrap: &shellSpec, options: shellOptions},
	// Shells: a FILE operand, or the script on standard input.
	"bash":    {project: &runner{shell: true, what: "runs a script"}, wrap: &plainShell, options: shellOptions},
	"builtin": {wrap: &wrapSpec{kind: wrapExec, inCaller: true}},
	"busybox": {wrap: &wrapSpec{kind: wrapExec, ownOptions: true}},
	"bwrap": {
		options: []opt{val(0, "--args --argv0 --userns --userns2 --pidns --uid --gid --hostname --chdir --unsetenv --lock-file --sync-fd --remount-ro --exec-label --file-label --dev --proc --mqueue --tmpfs --dir --seccomp --add-seccomp-fd --block-fd --userns-block-fd --info-fd --json-status-fd --cap-add --cap-drop --perms --size"), pair("--setenv --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try --bind-fd --ro-bind-fd --file --bind-data --ro-bind-data --symlink --chmod --overlay-src --tmp-overlay --ro-overlay")}, wrap: &wrapSpec{kind: wrapExec},
	},
	"chroot":               {options: []opt{val(0, "--userspec --groups")}, wrap: &wrapSpec{kind: wrapExec, operands: 1}},
	"chrt":                 {options: []opt{val(0, "-T -P -D --sched-runtime --sched-period --sched-deadline"), does(noCommand, "-p -m")}, wrap: &wrapSpec{kind: wrapExec, operands: 1}},
	"command":              {options: []opt{does(noCommand, "-v -V")}, wrap: &wrapSpec{kind: wrapExec, inCaller: true}},
	"dash":                 {project: &runner{shell: true, what: "runs a script"}, wrap: &plainShell, options: shellOptions},
	"dbus-run-session":     {options: []opt{val(0, "--config-file --dbus-daemon")}, wrap: &wrapSpec{kind: wrapExec}},
	"doas":                 {options: []opt{val(0, "-u"), val(noCommand, "-C"), does(startsShell, "-s")}, wrap: &wrapSpec{kind: wrapExec}},
	"env":                  {options: []opt{val(0, "-u --unset"), val(setsDir, "-C --chdir"), val(splitsArgs, "-S --split-string")}, wrap: &wrapSpec{kind: wrapEnv}},
	"exec":                 {options: []opt{val(0, "-a")}, wrap: &wrapSpec{kind: wrapExec}},
	"fakeroot":             {options: []opt{val(0, "-l -s -i -b --lib --faked")}, wrap: &wrapSpec{kind: wrapExec}},
	"firejail":             {wrap: &wrapSpec{kind: wrapExec}},
	"fish":                 {project: &runner{shell: true, what: "runs a script"}, wrap: &shellSpec, options: shellOptions},
	"flock":                {options: []opt{val(shellCommand, "-c --command"), val(0, "-w -E --wait --timeout --conflict-exit-code")}, wrap: &wrapSpec{kind: wrapFlock}},
	"i3-sensible-terminal": {env: []envVar{{"TERMINAL", envCode}}},
	"ionice":               {options: []opt{val(0, "-c -n --class --classdata --pid --pgid --uid"), val(noCommand, "-p -P -u")}, wrap: &wrapSpec{kind: wrapExec}},
	"ksh":                  {project: &runner{shell: true, what: "runs a script"}, wrap: &shellSpec, options: shellOptions},
	"linux32":              {wrap: &wrapSpec{kind: wrapExec}},
	"linux64":              {wrap: &wrapSpec{kind: wrapExec}},
	"ltrace":               {options: []opt{val(0, "-a -A -D -e -F -l -n -p -s -u -w -x --align --indent --library"), val(writesFile, "-o --output")}, wrap: &wrapSpec{kind: wrapExec}},
	"mksh":                 {wrap: &shellSpec, options: shellOptions},
	"nice":                 {options: []opt{val(0, "-n --adjustment")}, wrap: &wrapSpec{kind: wrapExec}},
	"nohup":                {wrap: &wrapSpec{kind: wrapExec}},
	"nsenter":              {options: []opt{val(0, "-t -S -G -N --target --setuid --setgid --net-socket")}, wrap: &wrapSpec{kind: wrapExec}},
	"parallel": {
		options: []opt{val(0, "-a -d -E -I -j -n -N -L -P -s -S --arg-file --delimiter --jobs --max-args --sshlogin --max-chars --colsep --tag-string --joblog --results --tmpdir --workdir --wd --basefile --bf --transfer-file --return --sshloginfile --slf --timeout --delay --retries --halt --memfree --load --env --nice --block --block-size --recstart --recend --max-lines --max-replace-args")}, wrap: &wrapSpec{kind: wrapParallel},
	},
	"prlimit": {options: []opt{val(noCommand, "-p"), val(0, "-o --pid --output")}, wrap: &wrapSpec{kind: wrapExec}},
	"rbash":   {wrap: &shellSpec, options: shellOptions},
	"runuser": {options: suOptions, wrap: &wrapSpec{kind: wrapSu}},
	"script": {
		options: []opt{val(shellCommand, "-c --command"), val(0, "-E --echo"), val(writesFile, "-I -O -B -T --log-in --log-out --log-io --log-timing")},
		wrap:    &wrapSpec{kind: wrapScript},
	},
	"setarch": {options: []opt{does(noCommand, "-l")}, wrap: &wrapSpec{kind: wrapExec, operands: 1, optsAfter: true}},
	"setpriv": {
		options: []opt{val(0, "--ruid --euid --rgid --egid --reuid --regid --groups --inh-caps --ambient-caps --bounding-set --securebits --pdeathsig --selinux-label --apparmor-profile --landlock-access --landlock-rule --seccomp-filter")}, wrap: &wrapSpec{kind: wrapExec},
	},
	"setsid":    {wrap: &wrapSpec{kind: wrapExec}},
	"sg":        {wrap: &wrapSpec{kind: wrapSg}},
	"sh":        {project: &runner{shell: true, what: "runs a script"}, wrap: &plainShell, options: shellOptions},
	"ssh-agent": {options: []opt{val(0, "-a -E -O -P -t"), does(noCommand, "-k")}, wrap: &wrapSpec{kind: wrapExec}},
	"stdbuf":    {options: []opt{val(0, "-i -o -e --input --output --error")}, wrap: &wrapSpec{kind: wrapExec}},
	"strace": {
		options: []opt{val(0, "-a -b -e -E -I -O -p -P -s -S -u -U -X --attach --string-limit --user --env --trace --signal --status --expr --trace-path --summary-sort-by --columns --decode-fds --seccomp-bpf --quiet --silence --secontext --inject --fault"), val(writesFile, "-o --output")}, wrap: &wrapSpec{kind: wrapExec, pipeOut: true},
	},
	"su": {options: suOptions, wrap: &wrapSpec{kind: wrapSu}},
	"sudo": {
		env:     []envVar{{"SUDO_ASKPASS", envCode}, {"SUDO_EDITOR", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}},
		options: []opt{val(0, "-C -D -g -h -p -R -r -t -T -U -u --user --group --host --prompt --chdir --chroot --close-from --role --type --command-timeout --other-user")}, wrap: &wrapSpec{kind: wrapSudo},
	},
	"sudoedit": {
		options: []opt{val(0, "-C -D -g -h -p -R -r -t -T -U -u")}, wrap: &wrapSpec{kind: wrapSudo, edits: true},
		env: []envVar{{"SUDO_EDITOR", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}},
	},
	"taskset": {options: []opt{does(noCommand, "-p")}, wrap: &wrapSpec{kind: wrapExec, operands: 1}},
	"time": {
		options: []opt{val(0, "-f --format"), val(writesFile, "-o --output")}, wrap: &wrapSpec{kind: wrapExec},
		checks: []guardCheck{
			{check: timeOutput, why: "writes a file"},
		},
	},
	"timeout":  {options: []opt{val(0, "-s -k --signal --kill-after")}, wrap: &wrapSpec{kind: wrapExec, operands: 1}},
	"unbuffer": {wrap: &wrapSpec{kind: wrapExec}},
	"unshare": {
		options: []opt{val(0, "-S -G -R -w --setuid --setgid --root --wd --map-user --map-group --map-users --map-groups --propagation --setgroups --load-interp")}, wrap: &wrapSpec{kind: wrapExec},
	},
	"valgrind": {wrap: &wrapSpec{kind: wrapExec}},
	"watch":    {options: []opt{val(0, "-n -q --interval")}, wrap: &wrapSpec{kind: wrapWatch}},
	"xargs": {
		options: []opt{val(0, "-a -d -E -I -L -n -P -s --arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var")}, wrap: &wrapSpec{kind: wrapXargs},
	},
	"xdg-open": {env: []envVar{{"BROWSER", envCode}}},
	"zsh":      {project: &runner{shell: true, what: "runs a script"}, wrap: &zshSpec, options: shellOptions},
}
