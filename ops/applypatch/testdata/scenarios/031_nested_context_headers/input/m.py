class A:
    def f(self):
        x = 1
    def g(self):
        x = 1
class B:
    def f(self):
        x = 1
    def g(self):
        x = 1
