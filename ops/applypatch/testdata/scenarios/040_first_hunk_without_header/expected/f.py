import foo
bar
x
