import sys

def greet():
print("Hi")
