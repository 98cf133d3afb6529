package cmdguard

deny contains "no rm" if input.commands[_].argv[0] == "rm"
