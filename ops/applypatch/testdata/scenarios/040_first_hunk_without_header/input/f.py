import foo
x
