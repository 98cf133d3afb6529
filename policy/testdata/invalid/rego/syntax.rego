package cmdguard

deny contains msg if {
}}
