class Model:
    pass

def get_inputs():
    return ["cafÃ"]
