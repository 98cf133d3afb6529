package gitdir

import "strings"

// A KeyClass says what a configuration key makes git do.
type KeyClass int

// The classes.
const (
	// Inert keys change what git does, not which programs it runs.
	Inert KeyClass = iota
	// Runs keys name a program or shell command git runs (core.fsmonitor,
	// core.pager, alias.*, filter.*.clean, …) or move where its hooks
	// are (core.hooksPath).
	Runs
	// Unknown keys are not known to the gate: they may run a program.
	Unknown
)

// Classify says what the key of an Entry (lower-case section and name)
// with value makes git do. Keys are known by section; a key of a known
// section that is not listed is Unknown, as is every unknown section.
func Classify(key, value string) KeyClass {
	k := strings.ToLower(key)
	sec, rest, _ := strings.Cut(k, ".")
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	in := func(list string) bool { return strings.Contains(" "+list+" ", " "+name+" ") }
	switch sec {
	case "alias":
		return Runs // "!cmd" runs a shell; any alias may add -c options
	case "include", "includeif":
		if name == "path" {
			return Inert // followed by Configs
		}
	case "core":
		switch {
		case sub != "":
		case name == "fsmonitor":
			if isBool(value) {
				return Inert // the built-in daemon, or none
			}
			return Runs
		case in("pager editor sshcommand askpass gitproxy hookspath alternaterefscommand"):
			return Runs
		case in("repositoryformatversion filemode bare logallrefupdates ignorecase precomposeunicode symlinks " +
			"autocrlf eol safecrlf quotepath compression loosecompression abbrev sparsecheckout sparsecheckoutcone " +
			"untrackedcache splitindex commitgraph multipackindex preloadindex checkstat trustctime whitespace " +
			"worktree excludesfile attributesfile fscache longpaths fsync fsyncmethod fsyncobjectfiles " +
			"deltabasecachelimit bigfilethreshold packedgitlimit packedgitwindowsize notesref commentchar " +
			"commentstring warnambiguousrefs filesreflocktimeout packedrefstimeout sharedrepository " +
			"createobject hidedotfiles restrictinheritedhandles"):
			return Inert
		}
	case "pager":
		if isBool(value) {
			return Inert
		}
		return Runs
	case "sequence", "web", "interactive", "uploadpack":
		if in("editor browser difffilter packobjectshook") {
			return Runs
		}
	case "diff":
		switch {
		case sub == "" && name == "external":
			return Runs
		case sub == "" && in("algorithm renames renamelimit mnemonicprefix noprefix srcprefix dstprefix relative "+
			"colormoved colormovedws submodule indentheuristic context interhunkcontext statgraphwidth "+
			"suppressblankempty orderfile ignoresubmodules wserrorhighlight dirstat autorefreshindex tool guitool"):
			return Inert
		case sub != "" && in("textconv command"):
			return Runs
		case sub != "" && in("binary cachetextconv wordregex xfuncname funcname"):
			return Inert
		}
	case "filter":
		if in("clean smudge process") {
			return Runs
		}
		if name == "required" {
			return Inert
		}
	case "merge":
		switch {
		case sub != "" && name == "driver":
			return Runs
		case sub != "" && in("name recursive"), sub == "" && in("ff conflictstyle renames renamelimit log "+
			"verbosity tool guitool autostash defaulttoupstream directoryrenames stat"):
			return Inert
		}
	case "credential":
		if name == "helper" {
			return Runs
		}
		if in("username usehttppath protectprotocol") {
			return Inert
		}
	case "gpg":
		if in("program defaultkeycommand") {
			return Runs
		}
		if in("format allowedsignersfile mintrustlevel") {
			return Inert
		}
	case "imap":
		if name == "tunnel" {
			return Runs
		}
	case "help":
		if name == "autocorrect" {
			return Runs // runs the command it guesses, an alias too
		}
		if in("format htmlpath browser") {
			return Inert
		}
	case "difftool", "mergetool", "browser", "man", "guitool", "trailer", "sendemail", "instaweb":
		if in("cmd path command sendmailcmd smtpserver httpd browser viewer tocmd cccmd") {
			return Runs
		}
	case "remote":
		switch {
		case in("uploadpack receivepack vcs"):
			return Runs
		case in("url pushurl"):
			if transportRuns(value) {
				return Runs
			}
			return Inert
		case in("fetch push mirror tagopt prune prunetags promisor partialclonefilter skipdefaultupdate skipfetchall " +
			"proxy proxyauthmethod followremotehead"):
			return Inert
		}
	case "url":
		if transportRuns(sub) {
			return Runs
		}
		if _, local := LocalURL(sub); local && in("insteadof pushinsteadof") {
			// Rewrites a URL to a repository on this machine, whose
			// hooks and configuration then run: the gate vets the URLs
			// a command names, not what they are rewritten to.
			return Unknown
		}
		if in("insteadof pushinsteadof") {
			return Inert
		}
	case "protocol":
		switch {
		case name == "allow" && strings.EqualFold(value, "never"):
			return Inert
		case name == "allow":
			// always, or user (allowed unless GIT_PROTOCOL_FROM_USER=0),
			// for ext or as protocol.allow, every protocol's default:
			// lets ext:: run a command.
			return Runs
		case name == "version":
			return Inert
		}
	case "submodule":
		switch {
		case name == "update":
			if strings.HasPrefix(value, "!") {
				return Runs
			}
			return Inert
		case in("url active path branch fetchrecursesubmodules ignore shallow recurse fetchjobs propagatebranches"):
			return Inert
		}
	case "branch":
		switch {
		case in("remote pushremote"):
			// A URL in place of a remote's name: ext:: runs a command.
			if transportRuns(value) {
				return Runs
			}
			return Inert
		case in("merge rebase description autosetupmerge autosetuprebase sort"):
			return Inert
		}
	case "user", "init", "pull", "push", "fetch", "color", "log", "status", "gc", "maintenance", "rebase", "commit",
		"tag", "format", "advice", "index", "pack", "transfer", "receive", "feature", "rerere", "apply", "am",
		"blame", "grep", "i18n", "gui", "extensions", "lfs", "safe", "column", "checkout", "clone",
		"versionsort", "notes", "repack", "worktree", "stash", "http", "fsmonitor", "splitindex", "checkpoint",
		"reset", "add", "mailmap", "pretty", "showbranch", "bundle":
		return Inert
	}
	return Unknown
}

// LocalURL returns the path of a repository URL on this machine, as git
// tells one (url_is_local_not_ssh): file://PATH, or a URL with no
// scheme:// or transport:: and no colon before its first slash
// (host:path is ssh).
func LocalURL(u string) (string, bool) {
	if p, ok := strings.CutPrefix(u, "file://"); ok {
		return p, true
	}
	if strings.Contains(u, "://") || strings.Contains(u, "::") {
		return "", false
	}
	colon, slash := strings.IndexByte(u, ':'), strings.IndexByte(u, '/')
	if colon >= 0 && (slash < 0 || colon < slash) {
		return "", false
	}
	return u, u != ""
}

// transportRuns reports a URL whose transport runs a command (ext::,
// fd:: and any other <transport>:: helper).
func transportRuns(u string) bool {
	i := strings.Index(u, "::")
	return i > 0 && !strings.ContainsAny(u[:i], "/:@")
}

// isBool reports a git boolean value (or an empty one).
func isBool(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}
