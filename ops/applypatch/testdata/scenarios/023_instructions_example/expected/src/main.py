import sys

def greet():
print("Hello, world!")
