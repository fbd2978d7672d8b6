public enum ScreensLayer {}
