package cmdguard

test_nothing if true
