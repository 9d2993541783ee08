namespace normlab {}
