#error stand-in
