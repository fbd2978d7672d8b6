import Screens
public enum WonderlandAppLayer {}
