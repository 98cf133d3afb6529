package other

deny contains "x" if true
