person
